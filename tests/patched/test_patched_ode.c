/* Which ODE is this? Prints dGetConfiguration() and fails unless the library registers the
 * extension named on the command line (default ODE_EXT_patch_friction, the patch series of
 * patches/). For ODE_EXT_patch_friction the headers must also define dPATCH_FRICTION and the
 * adapter must report the in-solver coupling available, so a mix of patched library and stock
 * headers (or the reverse) fails too. */
#include <patchfriction/pf_ode.h>

#include <ode/ode.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *ext = argc > 1 ? argv[1] : "ODE_EXT_patch_friction";
    dInitODE2(0);
    const char *config = dGetConfiguration();
    int in_library = dCheckConfiguration(ext);
#ifdef dPATCH_FRICTION
    int in_headers = 1;
#else
    int in_headers = 0;
#endif
    int adapter = pf_ode_solver_coupling_available();
    printf("dGetConfiguration(): %s\n", config);
    printf("%s registered by the library: %s\n", ext, in_library ? "yes" : "no");
    printf("dPATCH_FRICTION defined by the headers: %s\n", in_headers ? "yes" : "no");
    printf("pf_ode_solver_coupling_available(): %d\n", adapter);
    dCloseODE();

    int ok = in_library;
    if (strcmp(ext, "ODE_EXT_patch_friction") == 0) ok = ok && in_headers && adapter == 1;
    if (!ok)
        fprintf(stderr, "FAIL: not the patched ODE (expected %s%s)\n", ext,
                strcmp(ext, "ODE_EXT_patch_friction") == 0
                    ? " in the library, dPATCH_FRICTION in the headers and the adapter agreeing"
                    : "");
    return ok ? 0 : 1;
}
