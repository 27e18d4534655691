# cafbench: one program; the coarray layer, pattern arithmetic, neighbour
# lists and the three sections are its helpers (unit tests link them too).
$(call family,caf,cafbench,caf/caf_rma.c caf/caf_pattern.c caf/caf_neigh.c caf/caf_reps.c caf/caf_p2p_patterns.c caf/caf_p2p.c caf/caf_sync.c caf/caf_halo.c)
