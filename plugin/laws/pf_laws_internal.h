/* Private helpers of the friction laws (pf_laws_*.c). Not installed.
 * The *_fast functions are the unchecked updates used inside solvers: the caller has validated
 * the definition and guarantees finite v and dt > 0. */
#ifndef PATCHFRICTION_PF_LAWS_INTERNAL_H
#define PATCHFRICTION_PF_LAWS_INTERNAL_H

#include <patchfriction/pf_laws.h>

#include "pf_core_internal.h"

double pf_dahl_step_fast(const pfDahlDef *def, pfDahlState *state, double v, double dt);
double pf_lugre_step_fast(const pfLugreDef *def, pfLugreState *state, double v, double dt);
double pf_bristle_step_fast(const pfBristleDef *def, pfBristleState *state, double v, double dt);
double pf_sawtooth_step_fast(const pfSawtoothDef *def, pfSawtoothState *state, double v, double dt);
double pf_hybrid_step_fast(const pfHybridDef *def, pfHybridState *state, double v, double dt);

/* Geometry of P26 without checks. */
pfBristleGeometry pf_bristle_geometry_fast(const pfBristleDef *def);

/* Common argument checks of every step function. */
int pf_laws_check_step_args(const void *def, const void *state, double v, double dt,
                            const double *force, pfError *err);

#endif
