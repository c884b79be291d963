/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subsystems.h: the program's subsystems, declared once (subsystems.c). */
#pragma once

#include "engine/subsystem.h"

extern const struct halo_registry halo_registry;
