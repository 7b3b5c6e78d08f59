#!/bin/sh
# Viewer screenshot test (tests/CMakeLists.txt, viewer section): renders pf-demo under a virtual
# X server and checks the PNGs with png_check. Exits 77 (CTest SKIP_RETURN_CODE) only if
# xvfb-run is missing; every other problem fails. The features that can vanish without a crash
# (paths, ball marks, grids, the closed-form overlay) are checked both ways: present by default,
# and png_check's check for them fails once their key (--set keys=...) has turned them off.
#   screenshot_test.sh PF_DEMO PNG_CHECK OUT_DIR
set -u
demo=$1 check=$2 out=$3
if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xvfb-run not found: skipping the viewer screenshot test"
    exit 77
fi
mkdir -p "$out" || exit 1
# run NAME FRAMES pf-demo-arguments...
run() {
    name=$1 frames=$2
    shift 2
    rm -f "$out/$name.png"
    echo "pf-demo $* --frames $frames"
    xvfb-run -a -s "-screen 0 1280x720x24" "$demo" "$@" --screenshot "$out/$name.png" \
        --frames "$frames" || { echo "FAIL: pf-demo exited with $?"; exit 1; }
}
# pass PNG png_check-options...: the check must pass
pass() {
    "$check" "$@" || { echo "FAIL: png_check $* should pass"; exit 1; }
}
# miss PNG OPTION: the check for a feature that was turned off must fail (it can fail)
miss() {
    if "$check" "$@" >/dev/null; then
        echo "FAIL: png_check $* passes on a picture without the feature"
        exit 1
    fi
    echo "as expected, png_check $* fails on $1"
}
# one patch view (the block slides and spins: red patch, arrows, CR, its path, the ground grid)
run viewer_single 60 sliding-blocks --case general-motion
pass "$out/viewer_single.png" --expect-path --expect-grid
# ... and the side-by-side view: stock (blue patch) left, exact patch right
run viewer_split 60 sliding-blocks --case general-motion --set view=split
pass "$out/viewer_split.png" --expect-stock --expect-grid
# multi-stop after 3 s: the stop-and-go path of Kardan's figure
run viewer_multistop 180 sliding-blocks --case multi-stop
pass "$out/viewer_multistop.png" --expect-path --expect-grid
# shaking table: the marked ball, its path, the grid on the moving table
run viewer_table 30 shaking-table
pass "$out/viewer_table.png" --expect-mark --expect-path --expect-grid
# ... with the paths (T) and grids (G) turned off: those checks must fail
run viewer_table_off 30 shaking-table --set keys=tg
pass "$out/viewer_table_off.png" --expect-mark
miss "$out/viewer_table_off.png" --expect-path
miss "$out/viewer_table_off.png" --expect-grid
# pinch: the closed-form holding offset d* (white, dashed) beside the grip (its patches are small)
run viewer_pinch 60 pinch
pass "$out/viewer_pinch.png" --expect-overlay --no-patch
run viewer_pinch_off 60 pinch --set keys=o
miss "$out/viewer_pinch_off.png" --expect-overlay --no-patch
# push: the finger's friction cone (cyan) and Mason's motion cone (white, dashed) at its contact
# (its camera frames the ground only: no sky)
run viewer_push 60 push
pass "$out/viewer_push.png" --expect-overlay --no-sky
run viewer_push_off 60 push --set keys=o
pass "$out/viewer_push_off.png" --no-sky
miss "$out/viewer_push_off.png" --expect-overlay --no-sky
exit 0
