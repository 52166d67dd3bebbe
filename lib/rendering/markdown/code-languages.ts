/**
 * Code block languages: the display name the real server writes in `data-code-language`
 * (Pygments' lexer name for a known alias). A language it does not know is written in lower case,
 * as the real server lower-cases every fence language (`generic_handler`) before looking it up.
 */

const LEXERS = `
Bash: bash sh shell zsh ksh|Bash Session: console shell-session|Batchfile: bat batch cmd dosbatch winbatch
C: c|C#: csharp c# cs|C++: cpp c++|Clojure: clojure clj|CoffeeScript: coffeescript coffee coffee-script
CSS: css|Dart: dart|Diff: diff udiff|Docker: docker dockerfile|Elixir: elixir ex exs|Elm: elm
Emacs Lisp: emacs-lisp elisp emacs|Erlang: erlang|Fortran: fortran f90|Go: go golang|GraphQL: graphql
Groovy: groovy|Haskell: haskell hs|HTML: html|INI: ini cfg dosini|Java: java|JavaScript: javascript js
JSON: json json-object|JSX: jsx react|Julia: julia jl|Kotlin: kotlin|Lua: lua|Makefile: make makefile mf bsdmake
Markdown: markdown md|Matlab: matlab|Nginx configuration file: nginx|Nix: nixos nix|Objective-C: objective-c objectivec obj-c objc
OCaml: ocaml|Perl: perl pl|PHP: php php3 php4 php5|PostgreSQL SQL dialect: postgresql postgres|PowerShell: powershell pwsh posh ps1 psm1
Python: python py sage python3 py3|Python 2.x: python2 py2|Python console session: pycon|R: splus s r|Ruby: ruby rb duby
Rust: rust rs|Sass: sass|Scala: scala|SCSS: scss|SQL: sql|Swift: swift|TeX: tex latex|Text only: text plain
TOML: toml|TypeScript: typescript ts|TSX: tsx|VB.net: vb.net vbnet lobas oobas sobas|Vim Script: vim|XML: xml|YAML: yaml yml
`;

const BY_ALIAS: ReadonlyMap<string, string> = new Map(
  LEXERS.split(/[|\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .flatMap((entry) => {
      const [name, aliases] = entry.split(': ') as [string, string];
      return aliases.split(' ').map((alias): [string, string] => [alias, name]);
    }),
);

/** The `data-code-language` value for a fence's language ('' for none). */
export function codeLanguageName(language: string): string {
  const lower = language.toLowerCase();
  return BY_ALIAS.get(lower) ?? lower;
}
