/**
 * Who may write to channels and subscriptions (test/support/write-auth.ts), as the real server's
 * zerver/views/streams.py and zerver/lib/streams.py decide: subscribing is never for guests
 * (`require_non_guest_user`), channel settings and archiving are for channel administrators (realm
 * administrators here), removing others' subscriptions is `can_remove_subscribers_group`
 * (administrators), a private channel is "Invalid channel ID" to those without access, default
 * channels and channel folders are administrators'.
 */
import { ALL, below, bad, INSUFFICIENT, MUST_BE_ADMIN, MUST_BE_OWNER, NOT_FOR_GUESTS, refuse, refuseOn, type Target, type WriteRule } from './write-auth.js';

const NOT_FOUND = bad('Invalid channel ID');
const CANNOT_ADMINISTER = bad('You do not have permission to administer this channel.');

export const CHANNEL_RULES: readonly WriteRule[] = [
  {
    route: 'POST /users/me/subscriptions',
    targets: {
      'a new channel': (sc, as) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: `new for ${as}` }] } }),
      'a private channel': () => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: 'secret' }] } }),
      "another user's subscription": (sc) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: 'Denmark' }], principals: [sc.s.id('cordelia@zulip.com')] } }),
      'an archived channel': () => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: 'archived' }] } }),
      'a deactivated user': (sc) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: 'Denmark' }], principals: [sc.deactivated] } }),
      'a new web-public channel': (sc, as) => ({ path: '/users/me/subscriptions', params: { subscriptions: [{ name: `web ${as}` }], is_web_public: true } }),
    },
    // `require_non_guest_user`: a guest is refused whatever it names.
    refused: [
      ...refuseOn('guest', ['a new channel', 'a private channel', "another user's subscription", 'an archived channel', 'a deactivated user', 'a new web-public channel'], NOT_FOR_GUESTS),
      refuse(['administrator', 'moderator', 'member', 'bot'], 'a new web-public channel', INSUFFICIENT),
      refuse(['owner', 'administrator', 'moderator', 'member', 'bot'], 'a private channel', bad('Unable to access channel (secret).')),
      refuse(['owner', 'administrator', 'moderator', 'member', 'bot'], 'a deactivated user', bad('User is deactivated')),
    ],
  },
  {
    route: 'DELETE /users/me/subscriptions',
    targets: {
      "another user's subscription": (sc) => ({ path: '/users/me/subscriptions', params: { subscriptions: ['Verona'], principals: [sc.other] } }),
      'a private channel': (sc) => ({ path: '/users/me/subscriptions', params: { subscriptions: ['secret'], principals: [sc.other] } }),
    },
    refused: [refuse(below('administrator'), "another user's subscription", INSUFFICIENT), refuse(below('administrator'), 'a private channel', INSUFFICIENT)],
  },
  {
    route: 'PATCH /streams/{stream_id:int}',
    targets: {
      'a public channel': (sc) => ({ path: `/streams/${sc.denmark}`, params: { description: 'changed' } }),
      'a private channel': (sc) => ({ path: `/streams/${sc.secret}`, params: { description: 'changed' } }),
      'an archived channel': (sc) => ({ path: `/streams/${sc.archived}`, params: { description: 'changed' } }),
      'a private channel made public': (sc) => ({ path: `/streams/${sc.secret}`, params: { is_private: false } }),
      "a channel's retention period": (sc) => ({ path: `/streams/${sc.denmark}`, params: { message_retention_days: 30 } }),
      'a channel made web-public': (sc) => ({ path: `/streams/${sc.denmark}`, params: { is_web_public: true } }),
    },
    // Without metadata access (a guest outside Denmark, anyone outside the private channel) the channel does not exist.
    refused: [
      refuse(['moderator', 'member', 'bot'], 'a public channel', CANNOT_ADMINISTER),
      refuse('guest', 'a public channel', NOT_FOUND),
      refuse(below('administrator'), 'a private channel', NOT_FOUND),
      refuse(['moderator', 'member', 'bot'], 'an archived channel', CANNOT_ADMINISTER),
      refuse('guest', 'an archived channel', NOT_FOUND),
      // Administrators may change a private channel's settings, but not its privacy without content access.
      refuse(below('administrator'), 'a private channel made public', NOT_FOUND),
      refuse(['owner', 'administrator'], 'a private channel made public', bad('Channel content access is required.')),
      ...refuseOn(['moderator', 'member', 'bot'], ["a channel's retention period", 'a channel made web-public'], CANNOT_ADMINISTER),
      ...refuseOn('guest', ["a channel's retention period", 'a channel made web-public'], NOT_FOUND),
      refuse('administrator', "a channel's retention period", MUST_BE_OWNER),
      // can_create_web_public_channel_group: owners.
      refuse('administrator', 'a channel made web-public', INSUFFICIENT),
    ],
  },
  {
    route: 'DELETE /streams/{stream_id:int}',
    targets: {
      'a public channel': (sc) => ({ path: `/streams/${sc.denmark}` }),
      'a private channel': (sc) => ({ path: `/streams/${sc.secret}` }),
    },
    refused: [refuse(['moderator', 'member', 'bot'], 'a public channel', CANNOT_ADMINISTER), refuse('guest', 'a public channel', NOT_FOUND), refuse(below('administrator'), 'a private channel', NOT_FOUND)],
  },
  {
    route: 'POST /users/me/subscriptions/properties',
    targets: {
      'a private channel': (sc) => ({ path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: sc.secret, property: 'color', value: '#000000' }] } }),
      'a public channel the caller is not in': (sc) => ({ path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: sc.lonely, property: 'color', value: '#000000' }] } }),
    },
    refused: [
      refuse(ALL, 'a private channel', NOT_FOUND),
      refuse(['owner', 'administrator', 'moderator', 'member', 'bot'], 'a public channel the caller is not in', bad(/^Not subscribed to channel ID \d+$/)),
      refuse('guest', 'a public channel the caller is not in', NOT_FOUND),
    ],
  },
  {
    route: 'PATCH /users/me/subscriptions/muted_topics',
    targets: {
      'a private channel': (sc) => ({ path: '/users/me/subscriptions/muted_topics', params: { stream_id: sc.secret, topic: 'hidden', op: 'add' } }),
    },
    refused: [refuse(ALL, 'a private channel', NOT_FOUND)],
  },
  {
    route: 'POST /default_streams',
    targets: { 'a public channel': (sc) => ({ path: '/default_streams', params: { stream_id: sc.denmark } }), 'a private channel': (sc) => ({ path: '/default_streams', params: { stream_id: sc.secret } }) },
    refused: [refuse(below('administrator'), 'a public channel', MUST_BE_ADMIN), refuse(below('administrator'), 'a private channel', MUST_BE_ADMIN), refuse(['owner', 'administrator'], 'a private channel', NOT_FOUND)],
  },
  {
    route: 'DELETE /default_streams',
    targets: { 'a default channel': (sc) => ({ path: '/default_streams', params: { stream_id: sc.defaultChannel } }) },
    refused: [refuse(below('administrator'), 'a default channel', MUST_BE_ADMIN)],
  },
  {
    route: 'POST /default_stream_groups/create',
    targets: { 'the organization': () => ({ path: '/default_stream_groups/create', params: { group_name: 'taken over', description: '', stream_names: ['Denmark'] } }) },
    refused: [refuse(below('administrator'), 'the organization', MUST_BE_ADMIN)],
  },
  {
    route: 'PATCH /default_stream_groups/{group_id:int}',
    targets: { 'a default channel group': (sc) => ({ path: `/default_stream_groups/${sc.streamGroup}`, params: { new_description: 'taken over' } }) },
    refused: [refuse(below('administrator'), 'a default channel group', MUST_BE_ADMIN)],
  },
  {
    route: 'DELETE /default_stream_groups/{group_id:int}',
    targets: { 'a default channel group': (sc) => ({ path: `/default_stream_groups/${sc.streamGroup}` }) },
    refused: [refuse(below('administrator'), 'a default channel group', MUST_BE_ADMIN)],
  },
  {
    route: 'PATCH /default_stream_groups/{group_id:int}/streams',
    targets: {
      'a default channel group': (sc) => ({ path: `/default_stream_groups/${sc.streamGroup}/streams`, params: { op: 'add', stream_names: ['Denmark'] } }),
      'a private channel': (sc) => ({ path: `/default_stream_groups/${sc.streamGroup}/streams`, params: { op: 'add', stream_names: ['secret'] } }),
    },
    refused: [
      ...refuseOn(below('administrator'), ['a default channel group', 'a private channel'], MUST_BE_ADMIN),
      refuse(['owner', 'administrator'], 'a private channel', bad("Invalid channel name 'secret'")),
    ],
  },
  {
    route: 'POST /streams/{stream_id:int}/delete_topic',
    targets: {
      "another user's topic": (sc) => ({ path: `/streams/${sc.s.streamId('Verona')}/delete_topic`, params: { topic_name: 'his topic' } }),
      'a private channel': (sc) => ({ path: `/streams/${sc.secret}/delete_topic`, params: { topic_name: 'hidden' } }),
    },
    // Administrators too need access to the private channel's content.
    refused: [
      refuse(below('administrator'), "another user's topic", MUST_BE_ADMIN),
      refuse(below('administrator'), 'a private channel', MUST_BE_ADMIN),
      refuse(['owner', 'administrator'], 'a private channel', NOT_FOUND),
    ],
  },
  // zerver/views/channel_folders.py: every write is `require_realm_admin`.
  ...([
    ['POST /channel_folders/create', () => ({ path: '/channel_folders/create', params: { name: 'Taken over', description: '' } })],
    ['PATCH /channel_folders', (sc) => ({ path: '/channel_folders', params: { order: [...sc.s.world.channelFolders.keys()].reverse() } })],
    ['PATCH /channel_folders/{channel_folder_id:int}', (sc) => ({ path: `/channel_folders/${sc.channelFolder}`, params: { name: 'Renamed' } })],
  ] satisfies Array<[string, Target]>).map(([route, target]): WriteRule => ({ route, targets: { 'the organization': target }, refused: [refuse(below('administrator'), 'the organization', MUST_BE_ADMIN)] })),
];
