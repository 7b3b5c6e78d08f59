/* stub: replaced below */
#include "pf_scene_impl.h"
static const char *const cases_table[] = {"none", NULL};
static int b_table(pfScene *s, pfError *err)
{
    (void)s;
    return pfs_fail(err, PF_ERR_STATE, "not implemented yet");
}
const pfSceneClass pf_scene_class_table = {
    {"shaking-table", "", cases_table, NULL}, 0, b_table, 0, 0, 0, 0, 0, 0};
