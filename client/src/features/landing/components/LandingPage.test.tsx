import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { LocationProbe } from '../../../test/utils';
import { LandingPage } from './LandingPage';

function renderLanding() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

const card = (name: string) => within(screen.getByRole('article', { name }));

describe('LandingPage', () => {
  afterEach(cleanup);

  it('shows the tagline and the three features the spec words, word for word', () => {
    renderLanding();
    expect(screen.getByText('Professional auction platform for seamless bidding and comprehensive administrative control.')).toBeTruthy();
    const features = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(features).toEqual(expect.arrayContaining(['Real-time bidding', 'Secure transactions', 'User management with role-based access']));
  });

  it('has a User Portal card with Login as User and Register as User', () => {
    renderLanding();
    const user = card('User Portal');
    expect(user.getByRole('link', { name: 'Login as User' }).getAttribute('href')).toBe('/user/login');
    expect(user.getByRole('link', { name: 'Register as User' }).getAttribute('href')).toBe('/user/register');
  });

  it('has an Admin Portal card with Login as Admin and Register as Admin', () => {
    renderLanding();
    const admin = card('Admin Portal');
    expect(admin.getByRole('link', { name: 'Login as Admin' }).getAttribute('href')).toBe('/admin/login');
    expect(admin.getByRole('link', { name: 'Register as Admin' }).getAttribute('href')).toBe('/admin/register');
  });

  it('goes to the chosen portal page', () => {
    renderLanding();
    fireEvent.click(card('Admin Portal').getByRole('link', { name: 'Register as Admin' }));
    expect(screen.getByTestId('location').textContent).toBe('/admin/register');
  });
});
