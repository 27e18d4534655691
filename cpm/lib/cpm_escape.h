/*
 * cpm_escape: keeping the bytes a damaged input file quotes into an error
 * message from controlling the terminal. The readers of libcpm (model
 * files, DOT hierarchies) quote the words they refuse, and a word of a
 * binary or corrupted file may hold C0 controls, DEL, or C1 controls
 * (0x80-0x9f: raw, which a Latin-1 terminal obeys, or as UTF-8), any of
 * which can move the cursor, end the line or start an escape sequence.
 */
#ifndef COMMSWEEP_CPM_ESCAPE_H
#define COMMSWEEP_CPM_ESCAPE_H

/* Replaces, in place, every byte of s that is a control character or not
 * part of a well-formed UTF-8 sequence, and each byte of a sequence that
 * encodes a C1 control (U+0080 to U+009F), by '?'. Well-formed UTF-8 text
 * (host names in another script) is kept. */
void cpm_escape_controls(char *s);

#endif
