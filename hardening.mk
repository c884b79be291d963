# hardening.mk: root confinement and fault tests (issue 13).
