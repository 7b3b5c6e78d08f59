# Writes OUT, a C file defining pfr_gp_templates[] (report.h) from the gnuplot templates
# TEMPLATES (a |-separated list of paths): each file's text as a C string named by the file's
# stem. Run at build time: cmake -DOUT=... -DTEMPLATES=a.gp|b.gp -P embed_templates.cmake
string(REPLACE "|" ";" templates "${TEMPLATES}")
set(body "")
set(n 0)
foreach(path ${templates})
  get_filename_component(name ${path} NAME_WE)
  file(READ ${path} text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\n" "\\n\"\n     \"" text "${text}")
  string(APPEND body "    {\"${name}\",\n     \"${text}\"},\n")
  math(EXPR n "${n} + 1")
endforeach()
file(WRITE ${OUT}.tmp "/* Generated from the templates in tools/report/gnuplot/ by embed_templates.cmake: do not edit. */
#include \"report.h\"

const pfrTemplate pfr_gp_templates[] = {
${body}};
const size_t pfr_gp_ntemplates = ${n};
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
