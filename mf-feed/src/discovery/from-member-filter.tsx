import { useEffect, useId, useState } from 'react';
import styled from 'styled-components';
import { callRoutes, USER_SEARCH_QUERY_MAX_LENGTH } from '@campus/contracts';
import { readCall } from '@campus/kit/api';
import { keys, useCallData } from '@campus/kit/data';
import { Button } from '@campus/kit/ui';
import { FilterField } from './filter-field';

const PEOPLE_SHOWN = 5;
const DEBOUNCE_MS = 250;

const Box = styled(FilterField)`
  input {
    padding: 0 ${({ theme }) => theme.space(3)};
  }
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(1)};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const Chosen = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
`;

function fetchPeople([, , q]: ReturnType<typeof keys.peopleSearch>) {
  return readCall(callRoutes.searchUsers, { query: { q } });
}

/**
 * The "from a member" filter of a post search: the member chosen (with a way back to anyone),
 * or a field that finds members by name or e-mail (the people search) to choose one from.
 */
export function FromMemberFilter({
  from,
  onChange,
}: {
  from: string | undefined;
  onChange: (from: string | undefined) => void;
}) {
  const fieldId = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const chosen = useCallData(from ? keys.user(Number(from)) : null);
  const people = useCallData(!from && q ? keys.peopleSearch(q) : null, { fetcher: fetchPeople });

  if (from) {
    return (
      <Box>
        <Chosen>
          <span>
            From <strong dir="auto">{chosen.data?.name ?? 'a member'}</strong>
          </span>
          <Button variant="secondary" size="sm" onClick={() => onChange(undefined)}>
            Any member
          </Button>
        </Chosen>
      </Box>
    );
  }
  const found = (people.data ?? []).slice(0, PEOPLE_SHOWN);
  return (
    <Box>
      <label htmlFor={fieldId}>From a member</label>
      <input
        id={fieldId}
        type="search"
        autoComplete="off"
        placeholder="Name or e-mail"
        maxLength={USER_SEARCH_QUERY_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {q && found.length > 0 && (
        <ul aria-label="Members to search posts from">
          {found.map((person) => (
            <li key={person.id}>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  setText('');
                  onChange(String(person.id));
                }}
              >
                {person.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Box>
  );
}
