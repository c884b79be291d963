# templates, units, rules, man pages
