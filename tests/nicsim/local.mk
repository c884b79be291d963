# tests/nicsim: the simulated NIC (issue 9), an LD_PRELOAD library that
# answers dcbnl, devlink and ethtool requests for the interfaces it is told
# about. Built by make check, never installed.
