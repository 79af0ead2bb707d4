import { applyDecorators, HttpCode, RequestMapping, RequestMethod } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiOperation,
  ApiParam,
  ApiQuery,
  type ApiParamOptions,
  type ApiQueryOptions,
} from '@nestjs/swagger';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointOptions {
  /**
   * i18n key of the operation's summary. Without it the route is served but left out of the
   * document: tec-document.ts documents PUT and PATCH aliases like their POST.
   */
  summary?: string;
  /** The path parameter (`id`, `slug`). */
  param?: ApiParamOptions;
  /** Query parameters declared outside a query DTO, in the order the document lists them. */
  queries?: ApiQueryOptions[];
  /** The success status where it is not Nest's default (201 for POST, 200 otherwise). */
  status?: number;
}

/**
 * One route in one call: method, path, success status and what the OpenAPI document says of it
 * (immich's `Authenticated()` style). Responses are not declared here: src/docs/responses.ts
 * documents them for every operation, with their schemas.
 */
export function Endpoint(
  method: HttpMethod,
  path: string | undefined,
  options: EndpointOptions = {},
): MethodDecorator {
  const decorators: Array<MethodDecorator> = [
    RequestMapping({ method: RequestMethod[method], path }),
  ];
  if (options.status !== undefined) decorators.push(HttpCode(options.status));
  if (options.summary === undefined) {
    decorators.push(ApiExcludeEndpoint());
  } else {
    decorators.push(ApiOperation({ summary: options.summary }));
    if (options.param) decorators.push(ApiParam(options.param));
    for (const query of options.queries ?? []) decorators.push(ApiQuery(query));
  }
  return applyDecorators(...decorators);
}
