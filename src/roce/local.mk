# src/roce: the RoCE QoS subsystem (issue 9): dcbnl, devlink and ethtool
# codecs over the netlink transport.
