/** The hyphen package's US English hyphenator (it ships no types): soft hyphens (U+00AD) where a word may break. */
declare module "hyphen/en-us" {
  export function hyphenateSync(text: string, options?: { hyphenChar?: string; minWordLength?: number }): string;
}
