/* stub: replaced below */
#include "pf_scene_impl.h"
static const char *const cases_coupled[] = {"none", NULL};
static int b_coupled(pfScene *s, pfError *err)
{
    (void)s;
    return pfs_fail(err, PF_ERR_STATE, "not implemented yet");
}
const pfSceneClass pf_scene_class_coupled = {
    {"coupled-masses", "", cases_coupled, NULL}, 0, b_coupled, 0, 0, 0, 0, 0, 0};
