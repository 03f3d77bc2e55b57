/**
 * Every model of the API, bound to one connection. Each module's model file declares its schema
 * and a binder; nothing is compiled on mongoose's default connection, so two apps in one process
 * (tests, benchmarks) each work on their own database. `connectDatabase(uri, { models:
 * createModels })` binds them when it connects and builds their indexes before anything is served.
 */
import type { Connection } from 'mongoose';
import { accountApplicationModel } from './modules/account-applications/model';
import { appealModel, decisionModel } from './modules/appeals/model';
import { auditEntryModel } from './modules/audit/model';
import { bookmarkModel } from './modules/bookmarks/model';
import { knownDeviceModel, signInDelayModel } from './modules/auth/model';
import { invitationModel } from './modules/invitations/model';
import { reportCaseModel, reportModel } from './modules/reports/model';
import { commentModel } from './modules/comments/model';
import { counterModel } from './modules/counters/model';
import { feedbackModel } from './modules/feedback/model';
import { followModel } from './modules/follows/model';
import { likeModel } from './modules/likes/model';
import { mediaModel } from './modules/media/model';
import { liveStreamModel } from './modules/stream/model';
import { notificationModel } from './modules/notifications/model';
import { postModel } from './modules/posts/model';
import { repostModel } from './modules/reposts/model';
import { tagFollowModel } from './modules/tags/model';
import { blockModel, mutedWordModel, muteModel } from './modules/safety/model';
import { browserSessionModel } from './modules/sessions/model';
import { contentVersionModel } from './modules/versions/model';
import { appSettingModel } from './modules/settings/model';
import { userModel } from './modules/users/model';
import { queuedMailModel } from './platform/mail-queue-model';
import { eventPositionModel, outboxModel } from './platform/outbox-model';
import { rateLimitWindowModel } from './platform/rate-limit-model';

export function createModels(connection: Connection) {
  return {
    AccountApplication: accountApplicationModel(connection),
    Appeal: appealModel(connection),
    AppSetting: appSettingModel(connection),
    AuditEntry: auditEntryModel(connection),
    Block: blockModel(connection),
    Bookmark: bookmarkModel(connection),
    BrowserSession: browserSessionModel(connection),
    Invitation: invitationModel(connection),
    KnownDevice: knownDeviceModel(connection),
    Report: reportModel(connection),
    ReportCase: reportCaseModel(connection),
    Comment: commentModel(connection),
    ContentVersion: contentVersionModel(connection),
    Counter: counterModel(connection),
    Decision: decisionModel(connection),
    EventPosition: eventPositionModel(connection),
    Feedback: feedbackModel(connection),
    Follow: followModel(connection),
    Like: likeModel(connection),
    Media: mediaModel(connection),
    Mute: muteModel(connection),
    MutedWord: mutedWordModel(connection),
    LiveStream: liveStreamModel(connection),
    Notification: notificationModel(connection),
    Outbox: outboxModel(connection),
    Post: postModel(connection),
    QueuedMail: queuedMailModel(connection),
    RateLimitWindow: rateLimitWindowModel(connection),
    Repost: repostModel(connection),
    SignInDelay: signInDelayModel(connection),
    TagFollow: tagFollowModel(connection),
    User: userModel(connection),
  };
}

export type Models = ReturnType<typeof createModels>;
