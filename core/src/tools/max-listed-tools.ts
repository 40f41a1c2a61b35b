/** Diagnostics name at most this many tools; the rest are counted, so a huge catalog cannot flood output. */
export const MAX_LISTED_TOOLS = 8;
