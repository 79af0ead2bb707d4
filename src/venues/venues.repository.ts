import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostStore } from '../posts/post-store.js';
import { Caches } from '../cache/caches.js';
import { LinkedPostRepository } from '../linked/linked-post.repository.js';
import { VenueEntity } from './venue.entity.js';

@Injectable()
export class VenuesRepository extends LinkedPostRepository<VenueEntity> {
  protected readonly entity = VenueEntity;
  protected readonly kind = 'venue' as const;
  protected readonly alias = 'v';
  /** BEHAVIOR §5.3: not country, not website. */
  protected readonly searchColumns = [
    'title',
    'description',
    'excerpt',
    'address',
    'city',
    'province',
    'state',
    'stateprovince',
    'zip',
    'phone',
  ];

  // Nest injects by this class's own parameter types (design:paramtypes), not the base class's.
  // oxlint-disable-next-line no-useless-constructor
  constructor(dataSource: DataSource, posts: PostStore, caches: Caches) {
    super(dataSource, posts, caches);
  }
}
