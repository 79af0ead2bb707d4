import { ListCategoriesQuery } from './dto/list-terms.query.js';
import { CreateCategoryDto, UpdateCategoryDto } from './dto/write-term.dto.js';
import { termController } from './term.controller.js';

/** `cal/events/v1/categories` (BEHAVIOR §5.4, §6.3, §7.6). */
export class CategoriesController extends termController('category', {
  listQuery: ListCategoriesQuery,
  createDto: CreateCategoryDto,
  updateDto: UpdateCategoryDto,
}) {}
