/**
 * The languages a user may pick as `default_language`, by code, with the name the real server
 * reports for each (`language_name` in settings events). The real server builds this list from
 * its translated locales (`compilemessages`: the locale directory name through Django's
 * `to_language`, so `zh_Hans` becomes `zh-hans`; the name is the language's own name, Django's
 * `name_local`, or the translation team's name for locales Django does not know).
 *
 * The codes are the real repository's locale directories (each has translations); the names are
 * recalled from Django's language table and are unconfirmed, so no conformance rule may assert
 * them.
 */
const TABLE: ReadonlyArray<readonly [string, string]> = [
  ['en', 'English'],
  ['ar', 'العربيّة'],
  ['be', 'беларуская'],
  ['bg', 'български'],
  ['bn', 'বাংলা'],
  ['bqi', 'Luri (Bakhtiari)'],
  ['ca', 'català'],
  ['cs', 'česky'],
  ['cy', 'Cymraeg'],
  ['da', 'dansk'],
  ['de', 'Deutsch'],
  ['el', 'Ελληνικά'],
  ['en-gb', 'British English'],
  ['eo', 'Esperanto'],
  ['es', 'español'],
  ['et', 'eesti'],
  ['fa', 'فارسی'],
  ['fi', 'suomi'],
  ['fr', 'français'],
  ['gl', 'galego'],
  ['gu', 'ગુજરાતી'],
  ['hi', 'हिंदी'],
  ['hu', 'Magyar'],
  ['id', 'Bahasa Indonesia'],
  ['id-id', 'Indonesian (Indonesia)'],
  ['it', 'italiano'],
  ['ja', '日本語'],
  ['kk', 'Қазақ'],
  ['ko', '한국어'],
  ['lt', 'Lietuviškai'],
  ['lv', 'latviešu'],
  ['ml', 'മലയാളം'],
  ['mn', 'Mongolian'],
  ['my', 'မြန်မာဘာသာ'],
  ['nb-no', 'Norwegian Bokmål (Norway)'],
  ['nl', 'Nederlands'],
  ['no', 'norsk'],
  ['pl', 'polski'],
  ['pt', 'Português'],
  ['pt-br', 'Português Brasileiro'],
  ['pt-pt', 'Portuguese (Portugal)'],
  ['ro', 'Română'],
  ['ru', 'Русский'],
  ['si', 'Sinhala'],
  ['sl', 'Slovenščina'],
  ['sr', 'српски'],
  ['sv', 'svenska'],
  ['ta', 'தமிழ்'],
  ['tl', 'Tagalog'],
  ['tr', 'Türkçe'],
  ['uk', 'Українська'],
  ['vi', 'Tiếng Việt'],
  ['zh-hans', '简体中文'],
  ['zh-hant', '繁體中文'],
  ['zh-tw', 'Chinese (Taiwan)'],
];

/** Language code to the name settings events carry; the keys are the accepted codes. */
export const LANGUAGE_NAMES: ReadonlyMap<string, string> = new Map(TABLE);
