/** Alert words: `GET`/`POST`/`DELETE /users/me/alert_words` (not in the description; as the real server). */
import { addAlertWords, MAX_ALERT_WORD_LENGTH, removeAlertWords } from '../../../lib/actions/personal/alert-words.js';
import { alertWordsOf } from '../../../lib/queries/personal/muted-lists.js';
import { badRequest } from '../../../lib/errors.js';
import { list, refine, str } from '../../../lib/input/schema.js';
import { codePointLength } from '../../../lib/input/topic-names.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json } from '../../app/params.js';
import { MAX_ALERT_WORDS } from '../../../lib/input/limits.js';

/** Each word at most 100 characters, checked before stripping, as pydantic's constraint does. */
const alertWord = refine(str, (value, path) => {
  if (codePointLength(value) > MAX_ALERT_WORD_LENGTH) throw badRequest(`${path} is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
});

const listAlertWords = authed({
  params: {},
  run({ world, user }) {
    return { alert_words: alertWordsOf(world, user) };
  },
});

const addWords = authed({
  params: { alert_words: json(list(alertWord, MAX_ALERT_WORDS)).required() },
  run({ world, user }, args) {
    return { alert_words: addAlertWords(world, user, args.alert_words) };
  },
});

const removeWords = authed({
  params: { alert_words: json(list(str, MAX_ALERT_WORDS)).required() },
  run({ world, user }, args) {
    return { alert_words: removeAlertWords(world, user, args.alert_words) };
  },
});

export const routes: RouteDef[] = [{ path: '/users/me/alert_words', methods: { GET: listAlertWords, POST: addWords, DELETE: removeWords } }];
