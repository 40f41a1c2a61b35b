/** The word of `known` closest to `typed` within `maxEdits` edits (Levenshtein), for a did-you-mean; ties go to the first. */
export function closestWord(typed: string, known: readonly string[], maxEdits = 2): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of known) {
    const distance = editDistance(typed, word, maxEdits);
    if (distance <= maxEdits && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

function editDistance(a: string, b: string, maxEdits: number): number {
  if (Math.abs(a.length - b.length) > maxEdits) return maxEdits + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}
