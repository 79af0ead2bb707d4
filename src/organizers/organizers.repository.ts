import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostStore } from '../posts/post-store.js';
import { Caches } from '../cache/caches.js';
import { LinkedPostRepository } from '../linked/linked-post.repository.js';
import { OrganizerEntity } from './organizer.entity.js';

@Injectable()
export class OrganizersRepository extends LinkedPostRepository<OrganizerEntity> {
  protected readonly entity = OrganizerEntity;
  protected readonly kind = 'organizer' as const;
  protected readonly alias = 'o';
  /** BEHAVIOR §5.3. */
  protected readonly searchColumns = [
    'title',
    'description',
    'excerpt',
    'phone',
    'email',
    'website',
  ];

  // Nest injects by this class's own parameter types (design:paramtypes), not the base class's.
  // oxlint-disable-next-line no-useless-constructor
  constructor(dataSource: DataSource, posts: PostStore, caches: Caches) {
    super(dataSource, posts, caches);
  }
}
