# src/roce: the roce planner and its items (issue 9), on the host table and
# the codecs of local.mk.
