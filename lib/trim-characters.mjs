// Trimming a repeated character from the ends of a string by walking it, not with /x+$/: a regular
// expression anchored only at the end is quadratic in V8 on long runs of that character (recheck finds
// '/'.repeat(54773) + '\x00/'). Plain JavaScript so server.mjs can use it with no compile step.

/**
 * `value` without any run of `character` at its end.
 * @param {string} value
 * @param {string} character
 * @returns {string}
 */
function trimEnd(value, character) {
  let end = value.length;
  while (end > 0 && value[end - 1] === character) end -= 1;
  return value.slice(0, end);
}

/**
 * `value` without any run of `character` at either end.
 * @param {string} value
 * @param {string} character
 * @returns {string}
 */
export function trimBoth(value, character) {
  let start = 0;
  while (start < value.length && value[start] === character) start += 1;
  return trimEnd(value.slice(start), character);
}

/**
 * A base URL without its trailing slashes, ready for `${base}/path`.
 * @param {string} value
 * @returns {string}
 */
export function trimTrailingSlashes(value) {
  return trimEnd(value, '/');
}
