import { ListTagsQuery } from './dto/list-terms.query.js';
import { CreateTagDto, UpdateTagDto } from './dto/write-term.dto.js';
import { termController } from './term.controller.js';

/** `cal/events/v1/tags` (BEHAVIOR §5.4, §6.3, §7.6). */
export class TagsController extends termController('tag', {
  listQuery: ListTagsQuery,
  createDto: CreateTagDto,
  updateDto: UpdateTagDto,
}) {}
