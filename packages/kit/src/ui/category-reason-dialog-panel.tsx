import { useId, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { Button, type ButtonProps } from './button';
import { DialogPanel as Dialog } from './dialog-panel';
import { TextArea } from './text-area';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Choices = styled.fieldset`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};
  margin: 0;
  padding: 0;
  border: 0;

  legend {
    margin-bottom: ${({ theme }) => theme.space(1.5)};
    font-size: 0.875rem;
    font-weight: 600;
  }
  label {
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(2)};
    font-size: 0.875rem;
    cursor: pointer;
  }
  input {
    width: 16px;
    height: 16px;
    accent-color: ${({ theme }) => theme.colors.primary};
  }
`;

const ErrorText = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.danger};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

export interface CategoryReasonDialogProps<C extends string = string> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** The question the categories answer ("What is wrong?"). */
  legend: string;
  /** The categories, in the order shown: one must be chosen. */
  categories: readonly { value: C; label: string }[];
  /** The optional words' label. */
  label: string;
  placeholder?: string;
  maxLength: number;
  /** Whether the words are required too (a suspension's reason). */
  textRequired?: boolean;
  confirmText: string;
  busyText?: string;
  confirmVariant?: ButtonProps['variant'];
  /** Does the request with the category and the trimmed words (blank: ''); closes on success. */
  onConfirm: (choice: { category: C; text: string }) => Promise<void>;
  /** What a failed `onConfirm` says (the dialog stays open with what was chosen and typed). */
  failureMessage: (failure: unknown) => string;
}

/**
 * A dialog that asks for a category and words before an action (issue 38: report something,
 * remove it, suspend a member): a radio group (one required) and a text area (optional unless
 * `textRequired`), validated on submit, sent once at a time, closed on success, kept open with a
 * message on failure. Closing clears it. Apps use `CategoryReasonDialog`
 * (category-reason-dialog.tsx), which fetches this code the first time one opens.
 */
export function CategoryReasonDialogPanel<C extends string>({
  open,
  onOpenChange,
  title,
  description,
  legend,
  categories,
  label,
  placeholder,
  maxLength,
  textRequired = false,
  confirmText,
  busyText = confirmText,
  confirmVariant,
  onConfirm,
  failureMessage,
}: CategoryReasonDialogProps<C>) {
  const [category, setCategory] = useState<C | null>(null);
  const [text, setText] = useState('');
  const [choiceError, setChoiceError] = useState<string | null>(null);
  const [textError, setTextError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = useId();
  const errorId = useId();
  const legendId = useId();

  const close = () => {
    setCategory(null);
    setText('');
    setChoiceError(null);
    setTextError(null);
    onOpenChange(false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = text.trim();
    if (category === null) {
      setChoiceError('Choose a category');
      return;
    }
    if (textRequired && !trimmed) {
      setTextError(`${label} is required`);
      return;
    }
    setBusy(true);
    try {
      await onConfirm({ category, text: trimmed });
      close();
    } catch (failure) {
      setTextError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={title}
      description={description}
    >
      <Form noValidate onSubmit={onSubmit}>
        <Choices
          role="radiogroup"
          aria-labelledby={legendId}
          aria-required="true"
          aria-invalid={choiceError ? true : undefined}
          aria-describedby={choiceError ? errorId : undefined}
        >
          <legend id={legendId}>{legend}</legend>
          {categories.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={category === option.value}
                onChange={() => {
                  setCategory(option.value);
                  setChoiceError(null);
                }}
              />
              {option.label}
            </label>
          ))}
          {choiceError && (
            <ErrorText id={errorId} role="alert">
              {choiceError}
            </ErrorText>
          )}
        </Choices>
        <TextArea
          label={label}
          rows={3}
          maxLength={maxLength}
          placeholder={placeholder}
          value={text}
          required={textRequired}
          error={textError ?? undefined}
          onChange={(event) => {
            setText(event.target.value);
            setTextError(null);
          }}
        />
        <Actions>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" variant={confirmVariant} disabled={busy}>
            {busy ? busyText : confirmText}
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
