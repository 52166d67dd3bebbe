/** Globs as the CLI takes them: rule ids (`--only`, `--skip`) and endpoint patterns (`--endpoint`). */

/** `*` matches any run of characters (slashes included), `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (const char of glob) {
    if (char === '*') pattern += '.*';
    else if (char === '?') pattern += '.';
    else pattern += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** Globs from repeatable, comma-separated flag values. */
export function splitGlobs(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((glob) => glob.trim()).filter((glob) => glob !== '');
}
