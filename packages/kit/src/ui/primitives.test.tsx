import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Checkbox,
  EmptyState,
  Skeleton,
  Spinner,
  Tabs,
  TextArea,
  TextField,
} from '@campus/kit/ui';
import { configureApi } from '@campus/kit/api';
import { renderWithTheme } from '../testing/render-with-theme';

describe('Button', () => {
  it('is a non-submitting button unless told otherwise, and respects disabled', async () => {
    const onClick = jest.fn();
    renderWithTheme(
      <>
        <Button onClick={onClick}>Post</Button>
        <Button disabled onClick={onClick}>
          Posting...
        </Button>
      </>,
    );
    expect(screen.getByRole('button', { name: 'Post' })).toHaveAttribute('type', 'button');
    await userEvent.click(screen.getByRole('button', { name: 'Post' }));
    await userEvent.click(screen.getByRole('button', { name: 'Posting...' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});

describe('Avatar', () => {
  it('shows the picture, resolved against the API, and initials when it fails to load', () => {
    configureApi({ baseUrl: 'http://api.test' });
    renderWithTheme(<Avatar name="Ada Lovelace" src="/uploads/a.webp" />);
    const image = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(image).toHaveAttribute('src', 'http://api.test/uploads/a.webp');
    fireEvent.error(image);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('AL')).toBeInTheDocument();
  });

  it('shows initials without a picture', () => {
    renderWithTheme(<Avatar name="grace" src={null} />);
    expect(screen.getByText('G')).toBeInTheDocument();
  });
});

describe('Tabs', () => {
  function Harness({ onSelect }: { onSelect: (value: string) => void }) {
    const [value, setValue] = useState<'for-you' | 'following' | 'jd'>('for-you');
    return (
      <Tabs
        label="Feed"
        value={value}
        onSelect={(next) => {
          onSelect(next);
          setValue(next);
        }}
        items={[
          { value: 'for-you', label: 'For You' },
          { value: 'following', label: 'Following' },
          { value: 'jd', label: 'JD' },
        ]}
      />
    );
  }

  it('selects on click, reports clicks on the active tab, and moves with the arrow keys', async () => {
    const onSelect = jest.fn();
    const user = userEvent.setup();
    renderWithTheme(<Harness onSelect={onSelect} />);
    expect(screen.getByRole('tab', { name: 'For You' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'For You' }));
    expect(onSelect).toHaveBeenLastCalledWith('for-you');
    await user.click(screen.getByRole('tab', { name: 'Following' }));
    expect(screen.getByRole('tab', { name: 'Following' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'JD' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'JD' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'For You' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('TextArea', () => {
  it('counts characters live as n/max', async () => {
    const user = userEvent.setup();
    renderWithTheme(<TextArea label="Comment" maxLength={280} />);
    expect(screen.getByText('0/280')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Comment'), 'hello');
    expect(screen.getByText('5/280')).toBeInTheDocument();
    expect(screen.getByLabelText('Comment')).toHaveAccessibleDescription('5/280');
  });

  it('counts a controlled value', () => {
    renderWithTheme(
      <TextArea label="Comment" maxLength={10} value="abc" onChange={() => undefined} />,
    );
    expect(screen.getByText('3/10')).toBeInTheDocument();
  });
});

describe('Checkbox and TextField', () => {
  it('label their inputs and expose errors', async () => {
    renderWithTheme(
      <>
        <Checkbox label="Sync to profile timeline" defaultChecked />
        <TextField label="Email" error="Please enter a valid email address" />
      </>,
    );
    expect(screen.getByRole('checkbox', { name: 'Sync to profile timeline' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Sync to profile timeline' }));
    expect(screen.getByRole('checkbox', { name: 'Sync to profile timeline' })).not.toBeChecked();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Please enter a valid email address');
  });
});

describe('Badge, Skeleton, Spinner, EmptyState', () => {
  it('render their content accessibly', () => {
    renderWithTheme(
      <>
        <Badge>3</Badge>
        <Skeleton data-testid="bone" />
        <Spinner label="Loading..." />
        <EmptyState title="No notifications yet" description="You'll see notifications here." />
      </>,
    );
    expect(screen.getByText('3')).toBeInTheDocument();
    expect(screen.getByTestId('bone')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('status', { name: 'Loading...' })).toHaveTextContent('Loading...');
    expect(screen.getByRole('heading', { name: 'No notifications yet' })).toBeInTheDocument();
  });
});
