import { UserEntity } from './auth/users/user.entity.js';
import { ImageEntity } from './posts/image.entity.js';
import { PostIdEntity } from './posts/post-id.entity.js';
import { eventsEntities } from './events/entities.js';
import { organizersEntities } from './organizers/entities.js';
import { termsEntities } from './terms/entities.js';
import { venuesEntities } from './venues/entities.js';

/**
 * Every entity, listed once for the app, the CLI and the schema tests. The list lives beside the
 * application module, which composes the resources, so that `database/` (below every resource)
 * names none of them: it opens connections and runs migrations, which need no entity.
 */
export const entities = [
  UserEntity,
  PostIdEntity,
  ImageEntity,
  ...eventsEntities,
  ...venuesEntities,
  ...organizersEntities,
  ...termsEntities,
];
