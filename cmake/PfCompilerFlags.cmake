# Warning flags shared by every target of the project (C11, -Wall -Wextra -Wpedantic
# -Wmissing-prototypes clean).
add_library(pf_warnings INTERFACE)
target_compile_options(pf_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wmissing-prototypes -Wshadow -Wstrict-prototypes)
if(PF_WERROR)
  target_compile_options(pf_warnings INTERFACE -Werror)
endif()

# pf_add_sanitizers(): set by the "sanitize" preset through PF_SANITIZE=ON.
option(PF_SANITIZE "Build everything with AddressSanitizer + UndefinedBehaviorSanitizer" OFF)
if(PF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
