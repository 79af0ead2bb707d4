import { PartialType } from '@nestjs/swagger';
import { CreateEventDto } from './create-event.dto.js';

/** Every field optional; updates are partial on POST, PUT and PATCH (CONTRACT §6). */
export class UpdateEventDto extends PartialType(CreateEventDto) {}
