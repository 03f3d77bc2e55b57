import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import type { SampleJob } from '@campus/contracts';
import { Badge, Button, EmptyState } from '@campus/kit/ui';
import { SAMPLE_JOBS } from './sample-jobs';

const Page = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};
`;

const Banner = styled.p`
  margin: 0;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.notice};
  color: ${({ theme }) => theme.colors.onNotice};
  font-weight: 600;
  text-align: center;
`;

const Card = styled.article`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(5)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.sm};

  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: ${({ theme }) => theme.space(1)} ${({ theme }) => theme.space(4)};
    margin: 0;
    font-size: 0.875rem;
  }
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
  }
  ul {
    margin: 0;
    padding-left: ${({ theme }) => theme.space(5)};
  }
`;

const Recruiter = styled.p`
  margin: 0;
  display: flex;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
`;

/** Spec §2 "Opportunities placeholder": recommendations are not live yet, so nothing can be chosen. */
export default function OpportunitiesPage({
  jobs = SAMPLE_JOBS,
}: {
  /** The cards to go through (the one sample job; another list in tests). */
  jobs?: readonly SampleJob[];
}) {
  const navigate = useNavigate();
  // Recommendations are not live: nothing moves past the first card yet.
  const [index] = useState(0);
  const job = jobs[index];

  return (
    <Page aria-labelledby="opportunities-title">
      <h1 id="opportunities-title" style={{ margin: 0, fontSize: '1.5rem' }}>
        Opportunities
      </h1>
      <Banner role="note">Under Construction - Features coming soon</Banner>
      {job ? (
        <Card aria-label={job.jobTitle}>
          <Recruiter>
            {job.recruiterName}, {job.recruiterTitle}
            {job.isRecruiterVerified && <Badge $tone="primary">Verified Recruiter</Badge>}
          </Recruiter>
          <h2>
            {job.jobTitle} {job.isNew && <Badge $tone="danger">New</Badge>}
          </h2>
          <dl>
            <dt>Company</dt>
            <dd>{job.company}</dd>
            <dt>Location</dt>
            <dd>{job.location}</dd>
            <dt>Salary</dt>
            <dd>{job.salaryRange}</dd>
            <dt>Experience</dt>
            <dd>{job.experience}</dd>
            <dt>Job type</dt>
            <dd>{job.jobType}</dd>
          </dl>
          <div>
            <strong>Responsibilities</strong>
            <ul>
              {job.responsibilities.map((responsibility) => (
                <li key={responsibility}>{responsibility}</li>
              ))}
            </ul>
          </div>
          <Actions>
            <Button variant="secondary" disabled>
              Not Interested
            </Button>
            <Button disabled>Interested</Button>
            <Button variant="ghost" disabled>
              View Details
            </Button>
          </Actions>
        </Card>
      ) : (
        <EmptyState
          title="No More Opportunities"
          action={<Button onClick={() => void navigate('/')}>Back to Home</Button>}
        />
      )}
    </Page>
  );
}
