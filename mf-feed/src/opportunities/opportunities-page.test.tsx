import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { KitThemeProvider } from '@campus/kit/theme';
import OpportunitiesPage from './opportunities-page';
import { SAMPLE_JOBS } from './sample-jobs';

describe('OpportunitiesPage', () => {
  it('shows the banner and every field of the sample job, with its actions disabled', () => {
    render(
      <KitThemeProvider>
        <MemoryRouter>
          <OpportunitiesPage />
        </MemoryRouter>
      </KitThemeProvider>,
    );
    expect(screen.getByText('Under Construction - Features coming soon')).toBeInTheDocument();
    const job = SAMPLE_JOBS[0];
    if (!job) throw new Error('the placeholder needs its sample job');
    const card = screen.getByRole('article', { name: job.jobTitle });
    for (const text of [job.company, job.location, job.salaryRange, job.experience, job.jobType]) {
      expect(card).toHaveTextContent(text);
    }
    for (const responsibility of job.responsibilities) {
      expect(screen.getByText(responsibility)).toBeInTheDocument();
    }
    expect(card).toHaveTextContent(`${job.recruiterName}, ${job.recruiterTitle}`);
    expect(screen.getByText('Verified Recruiter')).toBeInTheDocument();
    expect(screen.getByText('New')).toBeInTheDocument();
    for (const action of ['Interested', 'Not Interested', 'View Details']) {
      expect(screen.getByRole('button', { name: action })).toBeDisabled();
    }
  });

  it("shows 'No More Opportunities' with 'Back to Home' once the list is exhausted", async () => {
    render(
      <KitThemeProvider>
        <MemoryRouter initialEntries={['/opportunities']}>
          <Routes>
            <Route path="/opportunities" element={<OpportunitiesPage jobs={[]} />} />
            <Route path="/" element={<p>Home feed</p>} />
          </Routes>
        </MemoryRouter>
      </KitThemeProvider>,
    );
    expect(screen.getByRole('heading', { name: 'No More Opportunities' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to Home' }));
    expect(screen.getByText('Home feed')).toBeInTheDocument();
  });
});
