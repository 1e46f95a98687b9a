import type {
  AdminPublic,
  AdminSession,
  LoginBody,
  RegisterBody,
  UserPublic,
  UserSession,
} from '@auction/shared';
import { api } from '../../../lib/api-client';

export type Portal = 'user' | 'admin';

// Admin login and registration send role 'admin' (spec §6).
export function loginUser(body: LoginBody): Promise<UserSession> {
  return api.post<UserSession>('/login', body, { as: 'none' });
}

export function loginAdmin(body: LoginBody): Promise<AdminSession> {
  return api.post<AdminSession>('/admin/login', { ...body, role: 'admin' }, { as: 'none' });
}

export function registerUser(body: RegisterBody): Promise<{ message: string; user: UserPublic }> {
  return api.post('/register', body, { as: 'none' });
}

export function registerAdmin(body: RegisterBody): Promise<{ message: string; admin: AdminPublic }> {
  return api.post('/admin/register', { ...body, role: 'admin' }, { as: 'none' });
}
