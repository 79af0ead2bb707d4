import { Module } from '@nestjs/common';

/** Terms: filled in by its issue (see docs/spec/INTERFACE.md). */
@Module({})
export class TermsModule {}
