import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import type { z } from 'zod';
import {
  accountApplicationRequestSchema,
  callRoutes,
  type AccountApplicationRequest,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';
import { keys } from '@campus/kit/data';
import { toast } from '@campus/kit/toast';
import { Button, Dialog, TextArea, TextField } from '@campus/kit/ui';

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

type ApplicationInput = z.input<typeof accountApplicationRequestSchema>;
const EMPTY: ApplicationInput = { name: '', contactInfo: '', message: '' };

/** Spec §2 "Account application dialog": Submit stays disabled until all three fields are filled. */
export function ApplyForAccessDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { mutate } = useSWRConfig();
  const {
    register,
    handleSubmit,
    reset,
    formState: { isValid, isSubmitting },
  } = useForm<ApplicationInput, unknown, AccountApplicationRequest>({
    resolver: zodResolver(accountApplicationRequestSchema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });

  const onValid = async (application: AccountApplicationRequest) => {
    try {
      await callApi(callRoutes.applyForAccount, { body: application });
      toast({
        title: 'Application submitted!',
        description:
          "Your account application has been sent. We'll review it and get back to you soon.",
      });
      void mutate(keys.notifications());
      reset(EMPTY);
      onOpenChange(false);
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to submit application. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Apply for Account Access"
      description="Alumni without an institutional e-mail address can apply here; we review every application."
    >
      <Form noValidate onSubmit={handleSubmit(onValid)}>
        <TextField label="Full name" autoComplete="name" {...register('name')} />
        <TextField
          label="Contact information"
          placeholder="Phone, personal e-mail or other"
          {...register('contactInfo')}
        />
        <TextArea
          label="Additional information"
          placeholder="Graduation year, department, student ID"
          rows={4}
          {...register('message')}
        />
        <Actions>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={!isValid || isSubmitting}>
            Submit Application
          </Button>
        </Actions>
      </Form>
    </Dialog>
  );
}
