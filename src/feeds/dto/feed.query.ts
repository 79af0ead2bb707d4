import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { doc } from '../../common/i18n/doc-key.js';
import { ToBoolean } from '../../common/http/transforms.js';
import { typeMessage } from '../../common/http/validation.js';
import { EventReadQuery } from '../../events/dto/event-read.query.js';
import { ListEventsQuery } from '../../events/dto/list-events.query.js';

/** The property of both feed queries: a series as its occurrences (CONTRACT §7, §9). */
const occurrencesOption = () =>
  applyDecorators(
    ApiPropertyOptional({ description: doc('feeds.occurrences'), type: 'boolean', default: false }),
    IsOptional(),
    ToBoolean(),
    IsBoolean({ message: typeMessage('boolean') }),
  );

/** Query of `GET /events.ics`: the list's, and `occurrences`. */
export class FeedListQuery extends ListEventsQuery {
  @occurrencesOption()
  occurrences?: boolean;
}

/** Query of `GET /events/{id}.ics`: the single read's, and `occurrences`. */
export class FeedEventQuery extends EventReadQuery {
  @occurrencesOption()
  occurrences?: boolean;
}
