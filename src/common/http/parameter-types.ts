import type { Type } from '@nestjs/common';

/**
 * Declares the classes of a controller handler's parameters, as TypeScript emits them for a
 * plain class (`design:paramtypes`). The validation pipe and the OpenAPI document read them; a
 * controller built by a factory from DTO classes given as arguments has to declare them itself.
 */
export function parameterTypes(target: Type<unknown>, handlers: Record<string, unknown[]>): void {
  for (const [handler, types] of Object.entries(handlers)) {
    Reflect.defineMetadata('design:paramtypes', types, target.prototype as object, handler);
  }
}
