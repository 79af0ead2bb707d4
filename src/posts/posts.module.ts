import { Module } from '@nestjs/common';
import { PostStore } from './post-store.js';
import { TranslationStore } from './translation-store.js';
import { TrashPurger } from './purge-trash.js';
import { TrashStore } from './trash-store.js';
import { WritesModule } from '../database/writes.module.js';

/**
 * What events, venues and organizers share in the database: the post id sequence, slugs and
 * image records (PostStore), translation groups (TranslationStore, terms use it too), and the
 * purge of the trash. Imported by each module that uses them.
 */
@Module({
  imports: [WritesModule],
  providers: [PostStore, TranslationStore, TrashStore, TrashPurger],
  exports: [PostStore, TranslationStore, TrashPurger],
})
export class PostsModule {}
