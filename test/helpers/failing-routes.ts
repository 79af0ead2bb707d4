import { Controller, Get } from '@nestjs/common';

/** The path of FailingController's routes. */
export const FAILING = '/cal/events/v1/_failing';

/**
 * Routes that fail the way a bug (`boom`: an unexpected error whose message names internals) and
 * a database outage (`db-down`) do, for tests of what the error filter answers and logs.
 */
@Controller(FAILING.slice(1))
export class FailingController {
  @Get('boom')
  boom() {
    throw new TypeError('secret internals at /srv/app.ts:1');
  }

  @Get('db-down')
  dbDown() {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' });
  }
}
