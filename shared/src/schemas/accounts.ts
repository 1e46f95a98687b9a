import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { CallerRef, MobileNumber, Name, Password, Text, Username } from './common.js';
import { Email } from './email.js';

export const UserPublic = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  mobile_number: Type.String(),
});
export type UserPublic = Static<typeof UserPublic>;

export const AdminPublic = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  mobile_number: Type.String(),
  is_owner: Type.Boolean(),
});
export type AdminPublic = Static<typeof AdminPublic>;

export const RegisterBody = Type.Object({
  name: Name,
  username: Username,
  password: Password,
  mobile_number: MobileNumber,
  /** Optional: a confirmation link is mailed to it; once confirmed it receives password resets and notices. */
  email: Type.Optional(Email),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const AdminRegisterBody = Type.Object({
  ...RegisterBody.properties,
  role: Type.Optional(Type.Literal('admin')),
});
export type AdminRegisterBody = Static<typeof AdminRegisterBody>;

export const LoginBody = Type.Object({
  username: Text('username', LIMITS.passwordMax),
  password: Text('password', LIMITS.passwordMax),
});
export type LoginBody = Static<typeof LoginBody>;

export const AdminLoginBody = Type.Object({
  ...LoginBody.properties,
  role: Type.Optional(Type.Literal('admin')),
});
export type AdminLoginBody = Static<typeof AdminLoginBody>;

export const ChangePasswordBody = Type.Object({
  password: Text('password', LIMITS.passwordMax),
  new_password: Password,
  username: Type.Optional(CallerRef),
  user_id: Type.Optional(CallerRef),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const AdminChangePasswordBody = Type.Object({
  ...ChangePasswordBody.properties,
  role: Type.Optional(Type.Literal('admin')),
});
export type AdminChangePasswordBody = Static<typeof AdminChangePasswordBody>;

export const UserRegistered = Type.Object({ message: Type.String(), user: UserPublic });
export type UserRegistered = Static<typeof UserRegistered>;
export const AdminRegistered = Type.Object({ message: Type.String(), admin: AdminPublic });
export type AdminRegistered = Static<typeof AdminRegistered>;
export const UserSession = Type.Object({ token: Type.String(), user: UserPublic });
export type UserSession = Static<typeof UserSession>;
export const AdminSession = Type.Object({ token: Type.String(), admin: AdminPublic });
export type AdminSession = Static<typeof AdminSession>;
export const PasswordChanged = Type.Object({ message: Type.String(), token: Type.String() });
export type PasswordChanged = Static<typeof PasswordChanged>;
