import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from './users/user.entity.js';
import { UsersService } from './users/users.service.js';
import { LoginThrottle } from './login-throttle.js';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  providers: [UsersService, LoginThrottle],
  exports: [UsersService, LoginThrottle],
})
export class AuthModule {}
