import type {
  AdminLoginBody,
  AdminRegisterBody,
  AdminRegistered,
  AdminSession,
  LoginBody,
  RegisterBody,
  UserRegistered,
  UserSession,
} from '@auction/shared';
import { api } from '../../../lib/api-client';

export type Portal = 'user' | 'admin';

// Admin login and registration send role 'admin', as existing clients do.
export function loginUser(body: LoginBody): Promise<UserSession> {
  return api.post<UserSession>('/login', body, { as: 'none' });
}

export function loginAdmin(body: LoginBody): Promise<AdminSession> {
  return api.post<AdminSession>('/admin/login', { ...body, role: 'admin' } satisfies AdminLoginBody, { as: 'none' });
}

export function registerUser(body: RegisterBody): Promise<UserRegistered> {
  return api.post<UserRegistered>('/register', body, { as: 'none' });
}

export function registerAdmin(body: RegisterBody): Promise<AdminRegistered> {
  return api.post<AdminRegistered>('/admin/register', { ...body, role: 'admin' } satisfies AdminRegisterBody, { as: 'none' });
}
