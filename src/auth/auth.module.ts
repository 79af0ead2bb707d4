import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from './users/user.entity.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';
import { LoginThrottle, THROTTLE_STORES } from './login-throttle.js';
import { SharedThrottleStores } from './redis-throttle-store.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { Sessions } from './sessions.js';

@Module({
  imports: [MetricsModule, TypeOrmModule.forFeature([UserEntity])],
  providers: [
    Sessions,
    UsersRepository,
    UsersService,
    LoginThrottle,
    SharedThrottleStores,
    // With REDIS_URL the counters are shared by every process; otherwise in memory (undefined).
    {
      provide: THROTTLE_STORES,
      inject: [SharedThrottleStores],
      useFactory: (shared: SharedThrottleStores) => shared.stores,
    },
  ],
  exports: [UsersService, LoginThrottle, SharedThrottleStores, Sessions],
})
export class AuthModule {}
