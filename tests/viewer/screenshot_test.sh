#!/bin/sh
# Viewer screenshot test (tests/CMakeLists.txt, viewer section): renders pf-demo under a virtual
# X server and checks the PNGs with png_check. Exits 77 (CTest SKIP_RETURN_CODE) only if
# xvfb-run is missing; every other problem fails.
#   screenshot_test.sh PF_DEMO PNG_CHECK OUT_DIR
set -u
demo=$1 check=$2 out=$3
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xvfb-run not found: skipping the viewer screenshot test"
    exit 77
fi
mkdir -p "$out" || exit 1
run() {
    name=$1
    shift
    rm -f "$out/$name.png"
    echo "pf-demo $*"
    xvfb-run -a -s "-screen 0 1280x720x24" "$demo" "$@" --screenshot "$out/$name.png" \
        --frames 60 || { echo "FAIL: pf-demo exited with $?"; exit 1; }
}
# one patch view (the block slides and spins: red patch, arrows, CR) ...
run viewer_single sliding-blocks --case general-motion
"$check" "$out/viewer_single.png" || exit 1
# ... and the side-by-side view: stock (blue patch) left, exact patch right
run viewer_split sliding-blocks --case general-motion --set view=split
"$check" "$out/viewer_split.png" --expect-stock || exit 1
exit 0
