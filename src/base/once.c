/* SPDX-License-Identifier: MIT */
/* The table of words the library computes once (base/once.h): one object, zero until written. */
#include "base/once.h"

static union fr_word words[FR_WORDS];

union fr_word *fr_word(enum fr_word_id id)
{
	return &words[id];
}
