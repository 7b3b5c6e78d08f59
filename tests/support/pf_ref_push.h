/* Independent quasi-static reference of the push scene (scenes/pf_scene_push.c; docs/physics.md
 * §11, P58-P61): the support's friction wrench by adaptive cubature of mu p (-u/|u|) over the
 * footprint (pf_ref_wrench for the rectangle, pf_ref_disk_p15 for the disk: libcubature, never the
 * plugin's wrench functions), and the twist that balances one force through the finger contact,
 * found with GSL's hybrid root finder: the finger sticks when that force lies in its friction
 * cone (Mason's motion cone), else it slides and the force lies on the cone's edge (P60, P61).
 * The trajectory (pf_ref_push_run) integrates the object's pose under that twist while the finger
 * moves on at constant velocity, and averages the scene's metrics over the same window. */
#ifndef PF_REF_PUSH_H
#define PF_REF_PUSH_H

/// The push scene's geometry and keys (SI; angles in radians). Defaults: pf_ref_push_default.
typedef struct pfRefPush {
    int disk;             ///< 0: block (rectangle footprint), 1: disk
    double length, width; ///< block footprint: along the push (body x), across (body y) [m]
    double radius;        ///< disk radius [m]
    double mu_f;          ///< finger-object coefficient, >= 0
    double finger_radius; ///< [m]
    double offset;        ///< the finger's line y = offset [m]
    double speed;         ///< finger speed along +x [m/s] > 0
    double yaw;           ///< the object's initial yaw [rad]
    double depth;         ///< the finger's initial overlap with the object [m]
    double t_from, t_to;  ///< the averaging window [s]
    double h;             ///< the pose integration step [s] (the window's bounds on its grid)
} pfRefPush;

/// Quasi-static state at one configuration, body frame of the object (origin at G).
typedef struct pfRefPushTwist {
    double vx, vy, w; ///< the object's twist: G's velocity [m/s], spin [rad/s]
    double fx, fy;    ///< the finger's force on the object, per unit mu N of the support [-]
    int sticking;     ///< 1: the finger sticks (force inside its cone), 0: it slides
    double slip;      ///< the finger's velocity relative to the object along the tangent [m/s]
} pfRefPushTwist;

/// Metrics of a reference run (same names as the scene's).
typedef struct pfRefPushResult {
    double ratio;             ///< mean of w / |v_G| over the window [rad/m]
    double finger_slip;       ///< mean |slip| over the window [m/s]
    double finger_slip_ratio; ///< finger_slip / speed
    double finger_sticking;   ///< 1 if the finger sticks at every sample of the window
    double x, y, yaw;         ///< pose at t_to
} pfRefPushResult;

/** Defaults of case "block" (60 x 100 mm footprint) or "disk" (radius 50 mm): offset 20 mm,
 *  mu_f 0.5, speed 5 mm/s, yaw 0, finger radius 5 mm, depth 2e-5 m, window 0.1 .. 0.3 s, h 5 ms.
 *  Returns 0, or -1 for an unknown case. */
int pf_ref_push_default(const char *case_name, pfRefPush *p);
/** --set key=value as the scene takes it (offset, mu_f, speed, yaw in degrees; mu is accepted
 *  and ignored: the quasi-static twist does not depend on it, P59). Returns 0, or -1 with msg. */
int pf_ref_push_set(pfRefPush *p, const char *key, const char *value, char *msg, int n);

/** The quasi-static twist for the finger contact point c (body frame, from G), the unit normal n
 *  into the object and the finger's velocity vf (body frame). Returns 0, or nonzero if the
 *  cubature or the root finder failed. */
int pf_ref_push_twist(const pfRefPush *p, const double c[2], const double n[2], const double vf[2],
                      pfRefPushTwist *out);

/** Integrate the quasi-static motion from t = 0 to t_to (RK2, step h) and average the metrics
 *  over [t_from, t_to]. Returns 0, or nonzero on a failed solve. */
int pf_ref_push_run(const pfRefPush *p, pfRefPushResult *out);

#endif
