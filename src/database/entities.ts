import { UserEntity } from '../auth/users/user.entity.js';
import { PostIdEntity } from '../common/posts/post-id.entity.js';

/** Every entity, listed once for the app, the CLI and the migration tools. */
export const entities = [UserEntity, PostIdEntity];
