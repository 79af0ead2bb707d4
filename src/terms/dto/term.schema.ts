import { ApiProperty } from '@nestjs/swagger';
import { termDoc } from './term-docs.js';

/**
 * The `Term` schema of the OpenAPI document (BEHAVIOR §3), documentation only: responses are
 * built by term.mapper.ts. The class name is the schema name.
 */
export class Term {
  @ApiProperty({ type: 'integer', description: termDoc('schema.id') })
  id!: number;

  @ApiProperty({ type: 'string', description: termDoc('schema.name') })
  name!: string;

  @ApiProperty({ type: 'string', description: termDoc('schema.slug') })
  slug!: string;

  @ApiProperty({ type: 'string', description: termDoc('schema.taxonomy') })
  taxonomy!: string;

  @ApiProperty({ type: 'string', description: termDoc('schema.description') })
  description!: string;

  @ApiProperty({ type: 'integer', description: termDoc('schema.parent') })
  parent!: number;

  @ApiProperty({ type: 'integer', description: termDoc('schema.count') })
  count!: number;

  @ApiProperty({ type: 'string', description: termDoc('schema.url') })
  url!: string;

  @ApiProperty({ type: 'array', items: { type: 'string' }, description: termDoc('schema.urls') })
  urls!: string[];
}
