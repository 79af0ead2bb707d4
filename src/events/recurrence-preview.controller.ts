import { Controller, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { I18nService } from 'nestjs-i18n';
import { forbidden, invalidParam, invalidParams } from '../common/errors/api-error.js';
import { NAMESPACE } from '../common/http/links.js';
import { Ctx, type RequestContext } from '../common/http/request-context.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { seriesWallClock, utcToLocal } from '../common/dates/index.js';
import { nowUtcSql } from '../database/columns.js';
import { describeRecurrence } from '../common/recurrence/describe.js';
import { expandSeries, horizonFrom } from '../common/recurrence/expand.js';
import { isRecurrenceProblem, parseRecurrence } from '../common/recurrence/rules.js';
import { canCreatePosts } from '../auth/post-policy.js';
import { Endpoint } from '../docs/endpoint.js';
import { OwnNamespaceOnly } from '../common/http/own-namespace.js';
import { RecurrencePreviewQuery } from './dto/recurrence-preview.query.js';

/** How many next occurrences a preview lists. */
const PREVIEW_OCCURRENCES = 5;

/** `recurrence` as the query string carries it: JSON text, or the extended parser's object. */
function recurrenceInput(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * `GET cal/events/v1/recurrence` (CONTRACT §9 "Preview"): a series as an editor builds it, before
 * it is saved: its rules in normal form, in words in the request's language, and its next
 * occurrences, exactly as the event's payload would show them. Reads and writes nothing stored;
 * for those who may create events (the expansion's bounds are the writes').
 */
@ApiTags('events')
@ApiBasicAuth('basic')
@UseGuards(OwnNamespaceOnly)
@Controller(`${NAMESPACE}/recurrence`)
export class RecurrencePreviewController {
  constructor(private readonly i18n: I18nService) {}

  @Endpoint('GET', undefined, { summary: resourceDoc('events')('op.recurrence_preview') })
  preview(@Query() query: RecurrencePreviewQuery, @Ctx() ctx: RequestContext) {
    const zone = query.timezone || ctx.config.siteTimezone;
    const allDay = query.all_day ?? false;
    const start = seriesWallClock(query.start_date, zone);
    const end = seriesWallClock(query.end_date, zone);
    if (!start) throw invalidParam('start_date');
    if (!end) throw invalidParam('end_date');
    const recurrence = parseRecurrence(recurrenceInput(query.recurrence));
    if (isRecurrenceProblem(recurrence)) throw invalidParams({ recurrence });
    if (!recurrence) throw invalidParam('recurrence');
    if (!canCreatePosts(ctx.actor)) throw forbidden(!!ctx.actor.user);
    const anchor = {
      start: allDay ? `${start.slice(0, 10)} 00:00:00` : start,
      end: allDay ? `${end.slice(0, 10)} 23:59:59` : end < start ? start : end,
      allDay,
      zone,
    };
    const nowLocal = utcToLocal(nowUtcSql(), zone);
    const expansion = expandSeries(recurrence, anchor, {
      horizon: horizonFrom(nowLocal > anchor.start ? nowLocal : anchor.start),
      take: PREVIEW_OCCURRENCES,
      after: nowLocal,
    });
    if ('key' in expansion) throw invalidParams({ recurrence: expansion });
    const translate = (key: string, args?: Record<string, string | number>) =>
      this.i18n.translate<string, string>(key, { lang: ctx.language, args });
    return {
      ...recurrence,
      description: describeRecurrence(recurrence, anchor, translate, ctx.language),
      next: expansion.occurrences.map((o) => ({
        start_date: o.start,
        end_date: o.end,
        utc_start_date: o.startUtc,
        utc_end_date: o.endUtc,
      })),
    };
  }
}
