import type { ModuleCatalogue } from '../../extensions/index.js';

/**
 * The module's own catalogue (keys `virtual_events.<key>`): its OpenAPI descriptions and the
 * event page's texts in the three languages; its validation reasons are the project's
 * (validation.url, validation.type).
 */
export const VIRTUAL_EVENTS_CATALOGUE: ModuleCatalogue = {
  en: {
    'page.online': 'Online',
    'page.join': 'Join the online event',
    'page.online_event': 'This event takes place online',
    'doc.is_virtual':
      'Whether the event takes place online (Virtual Events); null on a password-protected event read without its password',
    'doc.virtual_url': 'The link to join the online event (an http or https URL, "" when none)',
    'doc.virtual_video_source':
      'Where the online event streams: video, zoom, webex, google, microsoft, youtube or facebook ("" when not virtual)',
    'doc.list_virtual': 'true: only online events; false: only events that are not online',
  },
  hu: {
    'page.online': 'Online',
    'page.join': 'Csatlakozás az online eseményhez',
    'page.online_event': 'Az esemény online zajlik',
    'doc.is_virtual':
      'Az esemény online zajlik-e (virtuális esemény); jelszóval védett eseménynél jelszó nélkül null',
    'doc.virtual_url':
      'Az online eseményhez csatlakozás hivatkozása (http vagy https URL, "" ha nincs)',
    'doc.virtual_video_source':
      'Hol közvetítik az online eseményt: video, zoom, webex, google, microsoft, youtube vagy facebook ("" ha nem online)',
    'doc.list_virtual': 'true: csak az online események; false: csak a nem online események',
  },
  ro: {
    'page.online': 'Online',
    'page.join': 'Participă la evenimentul online',
    'page.online_event': 'Evenimentul are loc online',
    'doc.is_virtual':
      'Dacă evenimentul are loc online (eveniment virtual); null pentru un eveniment protejat cu parolă citit fără parolă',
    'doc.virtual_url':
      'Linkul de participare la evenimentul online (un URL http sau https, "" dacă nu există)',
    'doc.virtual_video_source':
      'Unde este transmis evenimentul online: video, zoom, webex, google, microsoft, youtube sau facebook ("" dacă nu este online)',
    'doc.list_virtual':
      'true: doar evenimentele online; false: doar evenimentele care nu sunt online',
  },
};
