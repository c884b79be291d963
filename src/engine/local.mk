# src/engine: items, plan, run loop, reports, state file.
libhalo_la_SOURCES += \
	src/engine/item.h \
	src/engine/plan.h \
	src/engine/engine.h \
	src/engine/report.h \
	src/engine/state.h
