# debian/: the Debian source package and its test (issue 12).
